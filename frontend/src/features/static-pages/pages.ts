/**
 * The static pages, as the router loads them: one small chunk for all of them (they are mostly
 * text), behind one import() in the route table, which is part of the first load.
 */
export { AboutUsPage } from './about-us-page';
export { AdvertisersPage } from './advertisers-page';
export { PremiumPage, YourPremiumPage } from './premium-pages';
export { PrivacyPage } from './privacy-page';
export { DiscordPage, InstagramPage } from './social-pages';
export { SupportPage } from './support-page';
export { TermsPage } from './terms-page';
