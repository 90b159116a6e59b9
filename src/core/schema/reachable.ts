/**
 * The components a model holds: those an attribute names, and those a model reaches through its
 * components and dynamic zones, all the way down.
 */
import type { Attribute, Component, Model, Schema } from './model.js';

/** The uids of the components an attribute holds: a component's one, a dynamic zone's list, else none. */
export function componentUids(attribute: Attribute): readonly string[] {
  if (attribute.kind === 'component') return [attribute.component];
  if (attribute.kind === 'dynamiczone') return attribute.components;
  return [];
}

/**
 * Every component `model` reaches, each once, depth first in attribute order (a component before
 * those it holds: the order Strapi lists a model's components in). A uid the schema does not have
 * is passed over, and a component that holds itself, directly or not, is walked once.
 */
export function reachableComponents(schema: Schema, model: Model): Component[] {
  const found = new Map<string, Component>();
  const walk = (from: Model): void => {
    for (const attribute of Object.values(from.attributes)) {
      for (const uid of componentUids(attribute)) {
        const component = schema.components.get(uid);
        if (!component || found.has(uid)) continue;
        found.set(uid, component);
        walk(component);
      }
    }
  };
  walk(model);
  return [...found.values()];
}
