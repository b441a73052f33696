import { useLocation } from 'react-router';
import { StatusPage } from '../components/status-page';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <StatusPage
      code="404"
      title="Page not found"
      text="The page you are looking for does not exist or has moved."
      lookedFor={pathname}
      search="music"
    />
  );
}
