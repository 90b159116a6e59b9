/**
 * The URL's query as it is now. React Router 7 renders navigations inside a transition, so the
 * `params` a component rendered with can be one change behind: two quick changes (type a search,
 * then pick a filter) built from them put the first one back (seen in CI under load: the search
 * reverted). The history entry is updated synchronously, so every change starts from it.
 */
export const currentParams = (): URLSearchParams => new URLSearchParams(window.location.search);
