module.exports = () => ({
  i18n: {
    config: {
      defaultLocale: 'en',
      locales: ['en', 'fr'],
    },
  },
});
