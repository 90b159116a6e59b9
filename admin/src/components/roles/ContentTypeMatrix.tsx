import { ActionIcon, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { Fragment, useState } from 'react';
import {
  actionsOn,
  cellState,
  rowState,
  setCell,
  setRow,
  type Condition,
  type RoleDraft,
  type TypeSection,
  type TypeSubject,
} from '../../role-permissions.ts';
import { StateCheckbox } from './checks.tsx';
import { SubjectDetails } from './SubjectDetails.tsx';

/**
 * Strapi's permission matrix for one kind of content-types: a row per type × Create, Read, Update,
 * Delete, Publish (a box each, "Article: Read"; partly ticked when the permission covers some
 * fields or locales) and a box for the whole row; a row opens (its ▸ button) onto its fields,
 * locales and conditions.
 */
export function ContentTypeMatrix({
  section,
  draft,
  onChange,
  nameOf,
  label,
  conditions,
}: {
  section: TypeSection;
  conditions: readonly Condition[];
  draft: RoleDraft;
  onChange: (draft: RoleDraft) => void;
  /** A content-type's name as people read it. */
  nameOf: (subject: TypeSubject) => string;
  label: string;
}) {
  const [open, setOpen] = useState<string | null>(null);
  if (section.subjects.length === 0) return <Text c="dimmed">This project has none.</Text>;
  return (
    <Table.ScrollContainer minWidth={200 + 100 * (section.actions.length + 1)}>
      <Table withTableBorder highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <VisuallyHidden>Content-type</VisuallyHidden>
            </Table.Th>
            <Table.Th>All</Table.Th>
            {section.actions.map((action) => (
              <Table.Th key={action.actionId}>{action.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {section.subjects.map((subject) => {
            const name = nameOf(subject);
            const opened = open === subject.uid;
            const actions = actionsOn(section, subject);
            return (
              <Fragment key={subject.uid}>
                <Table.Tr>
                  <Table.Th scope="row">
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-expanded={opened}
                        aria-label={`${name}: fields, locales and conditions`}
                        onClick={() => setOpen(opened ? null : subject.uid)}
                      >
                        {opened ? '▾' : '▸'}
                      </ActionIcon>
                      {name}
                    </Group>
                  </Table.Th>
                  <Table.Td>
                    <StateCheckbox
                      label={`${name}: every action`}
                      state={rowState(draft, section, subject)}
                      onChange={(on) => onChange(setRow(draft, section, subject, on))}
                    />
                  </Table.Td>
                  {section.actions.map((action) => (
                    <Table.Td key={action.actionId}>
                      {actions.includes(action) && (
                        <StateCheckbox
                          label={`${name}: ${action.label}`}
                          state={cellState(draft, action, subject)}
                          onChange={(on) => onChange(setCell(draft, action, subject, on))}
                        />
                      )}
                    </Table.Td>
                  ))}
                </Table.Tr>
                {opened && (
                  <Table.Tr>
                    <Table.Td colSpan={section.actions.length + 2} bg="gray.0">
                      <SubjectDetails
                        name={name}
                        section={section}
                        subject={subject}
                        draft={draft}
                        onChange={onChange}
                        conditions={conditions}
                      />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
