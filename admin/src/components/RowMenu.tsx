import { Menu, UnstyledButton } from '@mantine/core';

// A list row's "More actions" menu, loaded when a row's button is first pressed (ListView's FirstUse).

/** The row's menu: Duplicate. */
export default function RowMenu({
  name,
  onDuplicate,
  initiallyOpened = false,
}: {
  /** How the list names the row (its main field). */
  name: string;
  onDuplicate: () => void;
  initiallyOpened?: boolean;
}) {
  return (
    <Menu position="bottom-end" defaultOpened={initiallyOpened}>
      <Menu.Target>
        <UnstyledButton aria-label={`More actions for ${name}`} autoFocus={initiallyOpened}>
          ⋯
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onDuplicate}>Duplicate</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
