import type { EnrollField, EnrollProblem } from './validate.ts';

interface EnrollMessages {
  title: string;
  intro: string;
  noImpact: string;
  addressLegend: string;
  labels: Record<EnrollField, string>;
  hints: Partial<Record<EnrollField, string>>;
  chooseState: string;
  optional: string;
  problems: Record<EnrollProblem, string>;
  /** The API refused a field for a reason the form did not foresee; its English text is shown in English only. */
  apiProblem: (apiMessage: string) => string;
  submit: string;
  submitting: string;
  errorCount: (count: number) => string;
  formError: string;
}

export const messages: { en: EnrollMessages; es: EnrollMessages } = {
  en: {
    title: 'Set up your credit score',
    intro: 'We use these details to find your credit file.',
    noImpact: 'Checking your own score does not affect it.',
    addressLegend: 'Home address',
    labels: {
      ssn: 'Last 4 digits of your Social Security number',
      dateOfBirth: 'Date of birth',
      street: 'Street address',
      city: 'City',
      state: 'State',
      zipCode: 'ZIP code',
      phone: 'Phone number',
    },
    hints: {
      ssn: 'Only the last 4 digits, for example 1234.',
      zipCode: '5 digits, or ZIP+4 such as 62701-1234.',
      phone: 'For example +1 555 010 0100.',
    },
    chooseState: 'Choose a state',
    optional: '(optional)',
    problems: {
      required: 'This field is required.',
      ssnFormat: 'Enter exactly 4 digits.',
      dateFormat: 'Enter a real date.',
      tooYoung: 'You must be at least 18 years old.',
      tooOld: 'Check the year: the date is more than 120 years ago.',
      stateInvalid: 'Choose a state from the list.',
      zipFormat: 'Enter a ZIP code like 12345 or 12345-6789.',
      phoneFormat: 'Enter a phone number such as +1 555 010 0100.',
      tooLong: 'This is too long.',
    },
    apiProblem: (apiMessage) => `This value ${apiMessage}.`,
    submit: 'Continue',
    submitting: 'Checking…',
    errorCount: (count) =>
      count === 1 ? 'There is 1 problem with your details.' : `There are ${count} problems with your details.`,
    formError: 'We could not save your details. Please try again.',
  },
  es: {
    title: 'Configure su puntaje de crédito',
    intro: 'Usamos estos datos para encontrar su expediente de crédito.',
    noImpact: 'Consultar su propio puntaje no lo afecta.',
    addressLegend: 'Dirección de su casa',
    labels: {
      ssn: 'Últimos 4 dígitos de su número de Seguro Social',
      dateOfBirth: 'Fecha de nacimiento',
      street: 'Calle y número',
      city: 'Ciudad',
      state: 'Estado',
      zipCode: 'Código postal (ZIP)',
      phone: 'Número de teléfono',
    },
    hints: {
      ssn: 'Solo los últimos 4 dígitos, por ejemplo 1234.',
      zipCode: '5 dígitos, o ZIP+4 como 62701-1234.',
      phone: 'Por ejemplo +1 555 010 0100.',
    },
    chooseState: 'Elija un estado',
    optional: '(opcional)',
    problems: {
      required: 'Este campo es obligatorio.',
      ssnFormat: 'Escriba exactamente 4 dígitos.',
      dateFormat: 'Escriba una fecha válida.',
      tooYoung: 'Debe tener al menos 18 años.',
      tooOld: 'Revise el año: la fecha es de hace más de 120 años.',
      stateInvalid: 'Elija un estado de la lista.',
      zipFormat: 'Escriba un código postal como 12345 o 12345-6789.',
      phoneFormat: 'Escriba un teléfono como +1 555 010 0100.',
      tooLong: 'El texto es demasiado largo.',
    },
    apiProblem: () => 'Revise este dato.',
    submit: 'Continuar',
    submitting: 'Verificando…',
    errorCount: (count) => (count === 1 ? 'Hay 1 problema con sus datos.' : `Hay ${count} problemas con sus datos.`),
    formError: 'No pudimos guardar sus datos. Vuelva a intentarlo.',
  },
};
