/** The GraphiQL page served at the endpoint itself for browsers (mercurius serves its assets). */
export const playgroundHtml = `<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8"/>
  <title>Vellum GraphQL playground</title>
  <meta name="robots" content="noindex"/>
  <meta name="viewport" content="width=device-width, initial-scale=1"/>
  <style>body { margin: 0; overflow: hidden; } #main { height: 100vh; }</style>
</head>
<body>
  <div id="main"></div>
  <script src="/graphiql/config.js"></script>
  <script src="/graphiql/main.js"></script>
</body>
</html>
`;

/** A browser navigating to the endpoint (not a client sending a query). */
export function wantsPlayground(method: string, url: string, accept: string | undefined): boolean {
  return method === 'GET' && !url.includes('?') && (accept ?? '').includes('text/html');
}

/** The page loads GraphiQL from unpkg (mercurius' assets): the API's strict policy is relaxed for it alone. */
export const PLAYGROUND_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' https://unpkg.com; style-src 'self' 'unsafe-inline' https://unpkg.com; " +
  "img-src 'self' data: https:; font-src 'self' data: https://unpkg.com; connect-src 'self'; frame-ancestors 'self'";
