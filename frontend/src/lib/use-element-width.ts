import { useLayoutEffect, useRef, useState } from 'react';

/**
 * The width of an element in CSS pixels, whole, followed as it changes (a phone turned, a
 * sidebar shown): `fallback` until it is first measured, and a width of 0 (the element hidden)
 * keeps the last one. `key` measures again when the element itself comes or goes (shown only
 * once there is something to draw). Put `ref` on the element.
 */
export function useElementWidth<T extends HTMLElement = HTMLDivElement>(fallback: number, key?: unknown) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      if (element.clientWidth > 0) setWidth(Math.round(element.clientWidth));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [key]);
  return { ref, width };
}
