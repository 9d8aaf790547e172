export const messages = {
  en: {
    product: 'Credit score',
    close: 'Close',
    closeLabel: 'Close the credit widget',
    loading: 'Loading your credit information…',
    bannerLabel: 'Credit score widget',
    mainLabel: 'Your credit information',
  },
  es: {
    product: 'Puntaje de crédito',
    close: 'Cerrar',
    closeLabel: 'Cerrar el widget de crédito',
    loading: 'Cargando su información de crédito…',
    bannerLabel: 'Widget de puntaje de crédito',
    mainLabel: 'Su información de crédito',
  },
};
