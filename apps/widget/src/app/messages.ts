export const messages = {
  en: {
    product: 'Credit score',
    close: 'Close',
    closeLabel: 'Close the credit widget',
    loading: 'Loading your credit information…',
  },
  es: {
    product: 'Puntaje de crédito',
    close: 'Cerrar',
    closeLabel: 'Cerrar el widget de crédito',
    loading: 'Cargando su información de crédito…',
  },
};
