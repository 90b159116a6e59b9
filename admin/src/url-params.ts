import { useSearchParams } from 'react-router-dom';

/**
 * The URL's query as it is now. React Router 7 renders navigations inside a transition, so the
 * `params` a component rendered with can be one change behind: two quick changes (type a search,
 * then pick a filter) built from them put the first one back (seen in CI under load: the search
 * reverted). The history entry is updated synchronously, so every change starts from it.
 */
export const currentParams = (): URLSearchParams => new URLSearchParams(window.location.search);

/** Sets (or, with null or '', removes) some of the URL's query parameters, replacing the history entry. */
export function useParamsUpdate(): (changes: Record<string, string | null>) => void {
  const [, setParams] = useSearchParams();
  return (changes) => {
    const next = currentParams();
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };
}
