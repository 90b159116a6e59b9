/** Operations and data of test/fixtures/strapi5-shop, shared by its tests and its differential file. */

/** A product page as a front end asks it: one product, its zone's eight component kinds, their nested lists. */
export const PRODUCT_PAGE = `query Product($documentId: ID!) {
  product(documentId: $documentId) {
    documentId name price stock
    category { name }
    sections {
      __typename
      ... on ComponentBlocksHero { title subtitle buttons { label url } }
      ... on ComponentBlocksText { body }
      ... on ComponentBlocksFeatureList { heading features { title bullets { text } } }
      ... on ComponentBlocksFaq { items { question answer } }
      ... on ComponentBlocksSpecs { rows { label value } }
      ... on ComponentBlocksRelated { heading products { name category { name } } }
      ... on ComponentBlocksPricing { plans { name price perks { text } } }
      ... on ComponentBlocksCta { label links { label url } }
    }
  }
}`;

/** The sections of a product page: one of each kind, with nested lists. */
export function productSections(related: string[]): Record<string, unknown>[] {
  const bullets = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `b${i}` }));
  return [
    {
      __component: 'blocks.hero',
      title: 'Hero',
      subtitle: 'Sub',
      buttons: [
        { label: 'Buy', url: '/buy' },
        { label: 'More', url: '/more' },
      ],
    },
    { __component: 'blocks.text', body: 'Some text' },
    {
      __component: 'blocks.feature-list',
      heading: 'Features',
      features: [
        { title: 'F1', bullets: bullets(3) },
        { title: 'F2', bullets: bullets(2) },
      ],
    },
    {
      __component: 'blocks.faq',
      items: [
        { question: 'Q1', answer: 'A1' },
        { question: 'Q2', answer: 'A2' },
      ],
    },
    { __component: 'blocks.specs', rows: [{ label: 'Weight', value: '1 kg' }] },
    { __component: 'blocks.related', heading: 'Related', products: related },
    {
      __component: 'blocks.pricing',
      plans: [
        { name: 'Basic', price: 9.5, perks: bullets(2) },
        { name: 'Pro', price: 19.5, perks: bullets(4) },
      ],
    },
    { __component: 'blocks.cta', label: 'Go', links: [{ label: 'L', url: '/l' }] },
  ];
}
