/**
 * Documents of the relation-matrix fixture (test/fixtures/relation-matrix) for the content
 * manager's draft-relation counts: test/admin/content-manager-models.test.ts and its differential
 * (test/differential/content-manager-models.diff.ts) write the same ones, so the counts one pins
 * are the counts the other compared with Strapi.
 */

/** A `matrix.links` component's relations to the targets `a` and `b`: 3 of them link to `a`. */
const matrixLinks = (a: string, b: string) => ({
  caption: 'c',
  oneToOne: a,
  oneToMany: [a, b],
  manyToOne: b,
  manyToMany: [a, b],
});

/**
 * An owner's data linking to the target `a` 15 times: 3 on the owner itself, 3 in `block`, 3 in
 * `blocks` and 6 in `zone` (a `matrix.links` and one nested in a `matrix.nested`).
 */
export function ownerLinkingEverywhere(name: string, a: string, b: string) {
  const links = matrixLinks(a, b);
  return {
    name,
    oneToOneBi: a,
    manyToManyBi: [a, b],
    manyToManyUni: [a],
    manyToOneUni: b,
    block: links,
    blocks: [links, { caption: 'd', oneToOne: b }],
    zone: [
      { __component: 'matrix.links', ...links },
      { __component: 'matrix.nested', links: [links] },
    ],
  };
}
