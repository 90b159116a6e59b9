import { Suspense, useState, type ReactNode } from 'react';

/** What the stand-in button spreads on itself: the press that opens the control, and an early start of its load. */
export interface FirstUseHandlers {
  onClick?: () => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
}

/**
 * A dropdown whose code loads when first used: until then `button` renders a stand-in of its
 * target (the same label), whose press renders `control` (a `lazy()` component given
 * `initiallyOpened`), while it loads the stand-in again. Hovering or focusing the stand-in starts
 * the load (`load`, the same import as the lazy component's). The list's popovers and menus keep
 * Mantine's popover and floating-ui off the first screen this way (bench/admin-scale.ts).
 */
export function FirstUse({
  button,
  control,
  load,
}: {
  button: (handlers: FirstUseHandlers) => ReactNode;
  control: ReactNode;
  load: () => Promise<unknown>;
}) {
  const [used, setUsed] = useState(false);
  if (used) return <Suspense fallback={button({})}>{control}</Suspense>;
  const early = () => void load();
  return button({ onClick: () => setUsed(true), onPointerEnter: early, onFocus: early });
}
