import type { Page } from '@playwright/test';

/**
 * Every browser dialog (alert, confirm) the page opens, dismissed: the app says everything in
 * the page, so a journey ends expecting this list empty.
 */
export function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}
