/** The content API over REST: `/api/:pluralName` and `/api/:singularName` for every content type. */
export { registerContentApi } from './rest.js';
