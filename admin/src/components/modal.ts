// Mantine's Modal as a module of its own, for `lazy()`: a dialog's code loads when it first opens
// (ConfirmDialog, the list's bulk summary), not with the first screen.
export { Modal as default } from '@mantine/core';
