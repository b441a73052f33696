/** What kind of browser we run in; used for Google sign-in and the iOS Safari cache quirk. */

function userAgent(): string {
  return typeof navigator === 'undefined' ? '' : navigator.userAgent;
}

export function isIOS(ua: string = userAgent()): boolean {
  if (/iPad|iPhone|iPod/.test(ua)) return true;
  // iPadOS 13+ reports itself as a Mac; touch support gives it away.
  return (
    /Macintosh/.test(ua) && typeof navigator !== 'undefined' && navigator.maxTouchPoints > 1
  );
}

export function isMobile(ua: string = userAgent()): boolean {
  return /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i.test(ua) || isIOS(ua);
}

/** Safari on iOS (not Chrome, Firefox or Edge for iOS, which report CriOS/FxiOS/EdgiOS). */
export function isIOSSafari(ua: string = userAgent()): boolean {
  return isIOS(ua) && /Safari/.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(ua);
}
