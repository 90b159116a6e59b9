/**
 * Mantine's whole style sheet, loaded with every screen past the first (main.tsx). Its rules come
 * after the first screen's per-component sheets and repeat them, so the cascade is the whole
 * sheet's order either way.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
