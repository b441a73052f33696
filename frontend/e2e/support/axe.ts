import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, settled } from './fixtures';

/**
 * axe-core finds nothing on the page as it is, in the light scheme and then in the dark one
 * (every rule but the experimental ones), once the colours' transitions and entrance animations
 * have ended; the page is left dark. Each violation is named with its scheme and where it is.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settled(page);
    // Colours change by transitions (and a dialog fades in): axe reads contrast once they end.
    await page.evaluate(async () => {
      const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
      await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    });
    const found = await new AxeBuilder({ page }).analyze();
    expect(found.violations.map((v) => `${scheme}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
}
