/**
 * The API reference page (`/openapi`): the document rendered on the server as one HTML page, no
 * script, no file from elsewhere, so it works offline and under a policy that allows nothing but
 * its own inline style. Why not a renderer package: the maintained ones ship a browser bundle
 * plus their dependency tree (measured with `npm install` on 2026-11-28: Redoc 2.5.4's standalone
 * bundle 1.10 MB, 110 packages and 85 MB installed; Scalar 1.76's 3.57 MB, 209 packages and
 * 243 MB; RapiDoc 9.3.8's 0.86 MB, 84 packages and 159 MB), for a page a project's own front end
 * developers read. Any of them can be pointed at `/openapi.json`.
 */
import type { JsonSchema, OpenApiDocument, Operation, Parameter } from './spec.js';

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const anchor = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '-');

const REF = '#/components/schemas/';

/** A schema as a short type expression, each named schema a link to its section. */
function typeHtml(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema || Object.keys(schema).filter((key) => key !== 'description').length === 0) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.startsWith(REF) ? schema.$ref.slice(REF.length) : schema.$ref;
    return `<a href="#schema-${anchor(name)}">${escape(name)}</a>`;
  }
  const union = (parts: JsonSchema[], sign: string) => parts.map((part) => typeHtml(part, depth)).join(sign);
  if (Array.isArray(schema.anyOf)) return union(schema.anyOf as JsonSchema[], ' | ');
  if (Array.isArray(schema.oneOf)) return union(schema.oneOf as JsonSchema[], ' | ');
  if (Array.isArray(schema.allOf)) return union(schema.allOf as JsonSchema[], ' &amp; ');
  if ('const' in schema) return `<code>${escape(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => `<code>${escape(JSON.stringify(value))}</code>`).join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type ?? 'any')];
  return types
    .map((type) => {
      if (type === 'array') {
        const items = typeHtml(schema.items as JsonSchema | undefined, depth + 1);
        return / [|&] /.test(items) ? `(${items})[]` : `${items}[]`;
      }
      if (type === 'object' && schema.properties && depth < 3) {
        const required = new Set((schema.required as string[] | undefined) ?? []);
        const members = Object.entries(schema.properties as Record<string, JsonSchema>).map(
          ([name, property]) => `${escape(name)}${required.has(name) ? '' : '?'}: ${typeHtml(property, depth + 1)}`,
        );
        return `{ ${members.join(', ')} }`;
      }
      return typeof schema.format === 'string' && type !== 'null' ? `${type} (${escape(schema.format)})` : escape(type);
    })
    .join(' | ');
}

const describe = (text: unknown) => (typeof text === 'string' ? escape(text) : '');

function parametersHtml(parameters: Parameter[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map(
    (parameter) =>
      `<tr><td><code>${escape(parameter.name)}</code>${parameter.required ? ' <b>required</b>' : ''}</td><td>${parameter.in}</td>` +
      `<td>${typeHtml(parameter.schema)}</td><td>${describe(parameter.description)}</td></tr>`,
  );
  return `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr>${rows.join('')}</table>`;
}

function operationHtml(method: string, path: string, operation: Operation): string {
  const body = operation.requestBody
    ? `<h4>Request body</h4><ul>${Object.entries(operation.requestBody.content)
        .map(([type, { schema }]) => `<li><code>${escape(type)}</code>: ${typeHtml(schema)}</li>`)
        .join('')}</ul>`
    : '';
  const responses = Object.entries(operation.responses).map(
    ([status, response]) =>
      `<tr><td>${escape(status)}</td><td>${escape(response.description)}</td><td>${Object.entries(
        response.content ?? {},
      )
        .map(([type, { schema }]) => `<code>${escape(type)}</code> ${typeHtml(schema)}`)
        .join('<br>')}</td></tr>`,
  );
  return `<section class="operation" id="op-${anchor(operation.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code> ${describe(operation.summary)}</h3>
<p class="id">${escape(operation.operationId)}</p>${describe(operation.description)}
${parametersHtml(operation.parameters)}${body}
<h4>Responses</h4><table><tr><th>Status</th><th>Description</th><th>Body</th></tr>${responses.join('')}</table>
</section>`;
}

function schemaHtml(name: string, schema: JsonSchema): string {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const content = properties
    ? `<table><tr><th>Property</th><th>Type</th><th>Description</th></tr>${Object.entries(properties)
        .map(
          ([property, value]) =>
            `<tr><td><code>${escape(property)}</code>${required.has(property) ? ' <b>always</b>' : ''}</td>` +
            `<td>${typeHtml(value, 1)}</td><td>${describe(value.description)}</td></tr>`,
        )
        .join('')}</table>`
    : `<p>${typeHtml(schema)}</p>`;
  return `<section class="schema" id="schema-${anchor(name)}"><h3>${escape(name)}</h3>${schema.description ? `<p>${describe(schema.description)}</p>` : ''}${content}</section>`;
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:19rem;flex:none;border-right:1px solid #ddd;padding:1rem;box-sizing:border-box;font-size:13px}
nav ul{list-style:none;padding-left:.5rem;margin:.2rem 0 .8rem}nav a{color:inherit;text-decoration:none}nav a:hover{text-decoration:underline}
main{padding:1rem 2rem;min-width:0;flex:1}h2{border-bottom:2px solid #333;margin-top:2.5rem}
.operation,.schema{border-top:1px solid #ddd;padding:.4rem 0 1rem}h3{font-size:16px;margin:.6rem 0}h4{margin:.8rem 0 .3rem}
table{border-collapse:collapse;width:100%;font-size:13px}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
code{font:12.5px ui-monospace,monospace;background:#f4f4f5;padding:0 .2rem;border-radius:3px}.id{color:#666;font-size:12px;margin:0}
.method{display:inline-block;min-width:4.2rem;text-align:center;color:#fff;border-radius:3px;font:bold 12px ui-monospace,monospace;padding:.15rem 0}
.get{background:#2f7d32}.post{background:#1565c0}.put{background:#b26a00}.delete{background:#c62828}.patch{background:#6a1b9a}`;

/** The policy the page is served under: its inline style, nothing else. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/** The page, from the document; `documentUrl` is where the JSON is served. */
export function referencePage(document: OpenApiDocument, documentUrl: string): string {
  const byTag = new Map<string, string[]>();
  const nav = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, Operation][]) {
      const tag = operation.tags[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, operation)]);
      const link = `<li><a href="#op-${anchor(operation.operationId)}">${method.toUpperCase()} ${escape(path)}</a></li>`;
      nav.set(tag, [...(nav.get(tag) ?? []), link]);
    }
  }
  const schemas = Object.entries(document.components.schemas);
  const server = document.servers[0]?.url ?? '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(document.info.title)}: API reference</title>
<style>${STYLE}</style>
</head>
<body>
<nav><strong>${escape(document.info.title)}</strong>
${[...nav].map(([tag, links]) => `<div><a href="#tag-${anchor(tag)}">${escape(tag)}</a><ul>${links.join('')}</ul></div>`).join('\n')}
<div><a href="#schemas">Schemas</a></div></nav>
<main>
<h1>${escape(document.info.title)} <small>${escape(document.info.version)}</small></h1>
<p>${escape(document.info.description)}. Requests go to <code>${escape(server)}</code> followed by the path;
send <code>Authorization: Bearer &lt;token&gt;</code> (a user's JWT or an API token), or nothing for what the Public role may do.
The OpenAPI ${escape(document.openapi)} document: <a href="${escape(documentUrl)}">${escape(documentUrl)}</a>.</p>
${[...byTag].map(([tag, operations]) => `<h2 id="tag-${anchor(tag)}">${escape(tag)}</h2>\n${operations.join('\n')}`).join('\n')}
<h2 id="schemas">Schemas</h2>
${schemas.map(([name, schema]) => schemaHtml(name, schema)).join('\n')}
</main>
</body>
</html>
`;
}
