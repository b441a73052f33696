import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { BASE_PATH } from '../lib/config';
import { SignInPage } from '../features/auth/sign-in-page';
import { SignUpPage } from '../features/auth/sign-up-page';
import { VerifyPage } from '../features/auth/verify-page';
import { HomePage } from '../features/home/home-page';
import { SettingsPage } from '../features/settings/settings-page';
import { AppLayout } from './app-layout';
import { NotFoundPage } from './not-found-page';
import { RequireAuth } from './require-auth';
import { ScrollToTop } from './scroll-to-top';

/** The route table of spec §2, as far as it is built. */
export function AppRoutes() {
  return (
    <Routes>
      <Route index element={<Navigate to="/home" replace />} />
      <Route path="sign-in" element={<SignInPage />} />
      <Route path="sign-up" element={<SignUpPage />} />
      <Route path="verify" element={<VerifyPage />} />
      <Route element={<AppLayout />}>
        <Route path="home" element={<HomePage />} />
        <Route element={<RequireAuth />}>
          <Route path="settings" element={<SettingsPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter basename={BASE_PATH}>
      <ScrollToTop />
      <AppRoutes />
    </BrowserRouter>
  );
}
