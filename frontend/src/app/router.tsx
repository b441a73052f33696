import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { PageSpinner } from '../components/spinner';
import { BASE_PATH } from '../lib/config';
import { SignInPage } from '../features/auth/sign-in-page';
import { SignUpPage } from '../features/auth/sign-up-page';
import { VerifyPage } from '../features/auth/verify-page';
import { HomePage } from '../features/home/home-page';
import { OwnProfilePage } from '../features/profiles/own-profile-page';
import { SearchPage } from '../features/search/search-page';
import { SettingsPage } from '../features/settings/settings-page';
import { AppLayout } from './app-layout';
import { NotFoundPage } from './not-found-page';
import { RequireAuth } from './require-auth';
import { ScrollToTop } from './scroll-to-top';

// Another user's profile is loaded on demand (spec §2: the Profile route is loaded lazily).
const UserProfilePage = lazy(() =>
  import('../features/profiles/user-profile-page').then((m) => ({ default: m.UserProfilePage })),
);

function LazyUserProfile() {
  return (
    <Suspense fallback={<PageSpinner label="Loading profile" />}>
      <UserProfilePage />
    </Suspense>
  );
}

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
        <Route path="search" element={<SearchPage />} />
        <Route path="user/:userId" element={<LazyUserProfile />} />
        <Route path="another-user-rofile" element={<LazyUserProfile />} />
        <Route path="profile/:userId" element={<LazyUserProfile />} />
        <Route element={<RequireAuth />}>
          <Route path="profile" element={<OwnProfilePage />} />
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
