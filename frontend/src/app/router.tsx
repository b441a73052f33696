import { lazy, Suspense, type ComponentType } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { PageSpinner } from '../components/spinner';
import { BASE_PATH } from '../lib/config';
import { HomePage } from '../features/home/home-page';
import { AppLayout } from './app-layout';
import { RequireAuth } from './require-auth';
import { ScrollToTop } from './scroll-to-top';

/**
 * A page loaded on demand. Only the shell and the first screen (/home) are in the first
 * download (docs/frontend.md, "First load"); every other page is its own chunk, fetched when
 * someone goes there.
 */
function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(async () => {
    const page: ComponentType = (await load())[name];
    return { default: page };
  });
}

const SignInPage = lazyPage(() => import('../features/auth/sign-in-page'), 'SignInPage');
const SignUpPage = lazyPage(() => import('../features/auth/sign-up-page'), 'SignUpPage');
const VerifyPage = lazyPage(() => import('../features/auth/verify-page'), 'VerifyPage');
const ForgotPasswordPage = lazyPage(() => import('../features/auth/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('../features/auth/reset-password-page'), 'ResetPasswordPage');
const SearchPage = lazyPage(() => import('../features/search/search-page'), 'SearchPage');
// Spec §2: the Profile route is loaded lazily (so are all the others but /home).
const UserProfilePage = lazyPage(() => import('../features/profiles/user-profile-page'), 'UserProfilePage');
const OwnProfilePage = lazyPage(() => import('../features/profiles/own-profile-page'), 'OwnProfilePage');
const SettingsPage = lazyPage(() => import('../features/settings/settings-page'), 'SettingsPage');
const AdminPanel = lazyPage(() => import('../features/admin/admin-panel'), 'AdminPanel');
const PostPage = lazyPage(() => import('../features/posts/post-page'), 'PostPage');
const TagPage = lazyPage(() => import('../features/posts/tag-page'), 'TagPage');
const PlaylistPage = lazyPage(() => import('../features/playlists/playlist-page'), 'PlaylistPage');
const DiscoverPage = lazyPage(() => import('../features/discover/discover-page'), 'DiscoverPage');
const AddMediaPostPage = lazyPage(() => import('../features/create-post/add-media-post-page'), 'AddMediaPostPage');
const AddAudioPostPage = lazyPage(() => import('../features/create-post/add-audio-post-page'), 'AddAudioPostPage');
const AddMusicXmlPostPage = lazyPage(
  () => import('../features/create-post/add-musicxml-post-page'),
  'AddMusicXmlPostPage',
);
const AddLyricsPostPage = lazyPage(() => import('../features/create-post/add-lyrics-post-page'), 'AddLyricsPostPage');
const NotificationsPage = lazyPage(() => import('../features/notifications/notifications-page'), 'NotificationsPage');
const NotFoundPage = lazyPage(() => import('./not-found-page'), 'NotFoundPage');
const MarketingPage = lazyPage(() => import('../features/marketing/marketing-page'), 'MarketingPage');
// The static pages are mostly text: one chunk and one loader for all of them keeps this table,
// which is part of the first load, small.
const loadStaticPages = () => import('../features/static-pages/pages');
const PremiumPage = lazyPage(loadStaticPages, 'PremiumPage');
const YourPremiumPage = lazyPage(loadStaticPages, 'YourPremiumPage');
const SupportPage = lazyPage(loadStaticPages, 'SupportPage');
const AboutUsPage = lazyPage(loadStaticPages, 'AboutUsPage');
const AdvertisersPage = lazyPage(loadStaticPages, 'AdvertisersPage');
const TermsPage = lazyPage(loadStaticPages, 'TermsPage');
const PrivacyPage = lazyPage(loadStaticPages, 'PrivacyPage');
const InstagramPage = lazyPage(loadStaticPages, 'InstagramPage');
const DiscordPage = lazyPage(loadStaticPages, 'DiscordPage');

/** The route table of spec §2, as far as it is built. */
export function AppRoutes() {
  return (
    <Suspense fallback={<PageSpinner label="Loading page" />}>
      <Routes>
        <Route index element={<Navigate to="/home" replace />} />
        <Route path="sign-in" element={<SignInPage />} />
        <Route path="sign-up" element={<SignUpPage />} />
        <Route path="verify" element={<VerifyPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        {/* The marketing page has its own header and footer; the static pages sit in the app's
            layout, so a signed-in visitor keeps the navigation bar. */}
        <Route path="about-selfsound" element={<MarketingPage />} />
        <Route element={<AppLayout />}>
          <Route path="premium" element={<PremiumPage />} />
          <Route path="support" element={<SupportPage />} />
          <Route path="about-us" element={<AboutUsPage />} />
          <Route path="advertisers" element={<AdvertisersPage />} />
          <Route path="terms" element={<TermsPage />} />
          <Route path="privacy" element={<PrivacyPage />} />
          <Route path="socials/instagram" element={<InstagramPage />} />
          <Route path="socials/discord" element={<DiscordPage />} />
          <Route element={<RequireAuth />}>
            <Route path="your_premium" element={<YourPremiumPage />} />
          </Route>
          <Route path="home" element={<HomePage />} />
          <Route path="search" element={<SearchPage />} />
          <Route path="discover" element={<DiscoverPage />} />
          <Route path="user/:userId" element={<UserProfilePage />} />
          <Route path="another-user-rofile" element={<UserProfilePage />} />
          <Route path="profile/:userId" element={<UserProfilePage />} />
          <Route path="post/:postId" element={<PostPage />} />
          <Route path="tag/:tag" element={<TagPage />} />
          <Route path="playlist/:playlistId" element={<PlaylistPage />} />
          <Route element={<RequireAuth />}>
            <Route path="profile" element={<OwnProfilePage />} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="add-post-media" element={<AddMediaPostPage />} />
            <Route path="add-post-audio" element={<AddAudioPostPage />} />
            <Route path="add-post-musicxml" element={<AddMusicXmlPostPage />} />
            <Route path="add-post-lyrics" element={<AddLyricsPostPage />} />
            {/* /admin → /admin/a; the panel's own routes, each page lazy (spec §2 Route table). */}
            <Route path="admin/*" element={<AdminPanel />} />
            <Route path="notifications" element={<NotificationsPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
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
