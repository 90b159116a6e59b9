/**
 * What a read's answer depends on, as change groups (`TableSpec.changeGroup`: a content-type's or
 * a component's table): the response cache keeps the answer while their counters stay put.
 *
 * A read of type T shows T's rows, its component links and the relation links it owns (all in T's
 * group). Each relation it populates, filters or sorts through adds the target type (the target's
 * rows decide what shows, a delete or an unpublish there changes the answer, and a link owned by
 * the target side is in the target's group); each component and dynamic zone adds the components'
 * groups (their rows, and the links they own); media adds the file type's (the files and every
 * media link). Anything else a write touches cannot change the answer.
 */
import type { FilterNode, FindOneQuery, PopulateNode, PopulateTree, SortItem } from '../query/types.js';
import { CREATOR_MODEL } from '../schema/creators.js';
import { FILE_UID, type Attribute, type Model, type Schema } from '../schema/model.js';
import { componentUids } from '../schema/reachable.js';

export function readDependencies(schema: Schema, model: Model, query: FindOneQuery): string[] {
  const groups = new Set<string>([model.table]);
  const walk = new DependencyWalk(schema, groups);
  walk.populate(model, query.populate);
  if (query.filters) walk.filter(query.filters);
  if (query.sort) walk.sort(query.sort);
  return [...groups];
}

class DependencyWalk {
  constructor(
    private readonly schema: Schema,
    private readonly groups: Set<string>,
  ) {}

  private model(uid: string): Model | undefined {
    return this.schema.contentTypes.get(uid) ?? this.schema.components.get(uid);
  }

  /** The models an attribute reads, their groups added. */
  private reached(attribute: Attribute): Model[] {
    const uids =
      attribute.kind === 'relation'
        ? [attribute.target]
        : attribute.kind === 'media'
          ? [FILE_UID]
          : componentUids(attribute);
    const models: Model[] = [];
    for (const uid of uids) {
      const model = this.model(uid);
      if (!model) continue;
      this.groups.add(model.table);
      models.push(model);
    }
    return models;
  }

  populate(model: Model, tree: PopulateTree): void {
    for (const [name, node] of Object.entries(tree)) {
      const attribute = model.attributes[name];
      // The creator fields read administrators.
      if (name === 'createdBy' || name === 'updatedBy') this.groups.add(CREATOR_MODEL.table);
      // `localizations` and anything not an attribute read the model's own rows.
      if (!attribute) continue;
      for (const target of this.reached(attribute)) this.node(target, node);
    }
  }

  private node(model: Model, node: PopulateNode): void {
    if (node.filters) this.filter(node.filters);
    if (node.sort) this.sort(node.sort);
    if (node.populate) this.populate(model, node.populate);
    for (const [uid, inner] of Object.entries(node.on ?? {})) {
      const component = this.model(uid);
      if (!component) continue;
      this.groups.add(component.table);
      this.node(component, inner);
    }
  }

  filter(filter: FilterNode): void {
    switch (filter.kind) {
      case 'and':
      case 'or':
        for (const child of filter.children) this.filter(child);
        return;
      case 'not':
        this.filter(filter.child);
        return;
      case 'relation':
      case 'component':
        this.reached(filter.attribute);
        this.filter(filter.filter);
        return;
      case 'creator':
        this.groups.add(CREATOR_MODEL.table);
        return;
      case 'compare':
        return;
    }
  }

  sort(items: SortItem[]): void {
    for (const item of items) {
      for (const step of item.through) this.reached(step);
      if (item.creator) this.groups.add(CREATOR_MODEL.table);
    }
  }
}
