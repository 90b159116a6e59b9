/**
 * A device's name for the list of a user's sessions ("Chrome on macOS"), read from its User-Agent
 * header as Strapi 5.54 reads it (`@strapi/utils` `user-agent.js`): a label for people, not a
 * parser to detect features with.
 */

/** Browser and OS tokens come early; a longer header is cut before any pattern runs on it. */
const MAX_LENGTH = 1024;

// Order matters: the specific tokens first (Chromium forks carry "Chrome/" too, Chrome "Safari/").
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:YaBrowser|Yowser)\//, 'Yandex Browser'],
  [/\bBrave\//, 'Brave'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];

// "Mac OS X" appears in iOS agents too: iOS is looked for first.
const SYSTEMS: Array<[RegExp, string]> = [
  [/\bWindows NT\b/, 'Windows'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (list: Array<[RegExp, string]>, text: string) => list.find(([pattern]) => pattern.test(text))?.[1];

/** "Browser on OS", the browser or the OS alone, or undefined when neither is recognised. */
export function deviceName(userAgent: unknown): string | undefined {
  if (typeof userAgent !== 'string' || userAgent === '') return undefined;
  const text = userAgent.slice(0, MAX_LENGTH);
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system;
}
