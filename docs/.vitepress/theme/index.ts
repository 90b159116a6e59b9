// VitePress's default theme, with room for the wide reference tables (see custom.css).
import DefaultTheme from 'vitepress/theme';
import './custom.css';

export default DefaultTheme;
