import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

/** Changes to the address's parameters: a value sets its parameter, an empty one removes it. */
export type AddressChanges = Record<string, string>;

/**
 * The address's query parameters, and a way to change some of them that shows at once.
 *
 * React Router changes the address in a transition that commits a moment later; until then a
 * control bound to the address alone springs back (a radio visibly, a tab's selection) and a
 * second change made meanwhile is computed from the old address and undoes the first. So the
 * parameters shown are kept here, changed at once, and the address follows; when the address
 * changes any other way (Back, a link), it wins. Changes replace the history entry: a tab or a
 * filter chosen adds nothing for Back to walk through.
 */
export function useAddressParams(): [URLSearchParams, (changes: AddressChanges) => void] {
  const [params, setParams] = useSearchParams();
  const address = params.toString();
  const [shown, setShown] = useState(address);
  const [seen, setSeen] = useState(address);
  if (address !== seen) {
    setSeen(address);
    setShown(address);
  }
  const current = useMemo(() => new URLSearchParams(shown), [shown]);

  const change = (changes: AddressChanges) => {
    const next = new URLSearchParams(current);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (next.toString() === shown) return;
    setShown(next.toString());
    setParams(next, { replace: true });
  };
  return [current, change];
}
