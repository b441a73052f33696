import type { Page } from '@playwright/test';

/** Every Content-Security-Policy violation the page reports (the server sends a strict one). */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
