import type { RefObject } from 'react';

/**
 * After a publish the form's own checks refused: focus goes to the first field marked invalid
 * (its message beside it), once React has marked it, so a keyboard or screen-reader user lands
 * on what to fix rather than on the banner at the foot of the form.
 */
export function focusFirstInvalid(form: RefObject<HTMLFormElement | null>) {
  requestAnimationFrame(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
}
