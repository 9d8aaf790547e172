interface VerifyMessages {
  title: string;
  intro: string;
  rules: (questions: number, minutes: number) => string;
  start: string;
  starting: string;
  progress: (step: number, total: number) => string;
  timeLeft: string;
  timeLeftSpoken: (minutes: number, seconds: number) => string;
  expiringSoon: string;
  chooseAnswer: string;
  back: string;
  next: string;
  submit: string;
  submitting: string;
  verified: string;
  failedTitle: string;
  failedBody: string;
  attemptsLeft: (n: number) => string;
  tryAgain: string;
  expiredTitle: string;
  expiredBody: string;
  startAgain: string;
  lockedMessage: string;
  /** Read out while a locked customer's unlock time loads. */
  checkingLock: string;
}

export const messages: { en: VerifyMessages; es: VerifyMessages } = {
  en: {
    title: 'Confirm your identity',
    intro: 'To protect your information, answer a few questions that only you should know, based on your credit file.',
    rules: (questions, minutes) => `There are ${questions} questions. You have ${minutes} minutes to answer them.`,
    start: 'Start verification',
    starting: 'Preparing questions…',
    progress: (step, total) => `Question ${step} of ${total}`,
    timeLeft: 'Time left',
    timeLeftSpoken: (minutes, seconds) => (minutes > 0 ? `${minutes} min ${seconds} s left` : `${seconds} seconds left`),
    expiringSoon: 'Less than a minute left. Finish your answers soon, or you will need to start again.',
    chooseAnswer: 'Choose an answer to continue.',
    back: 'Back',
    next: 'Next question',
    submit: 'Submit answers',
    submitting: 'Checking your answers…',
    verified: 'Your identity is confirmed.',
    failedTitle: 'We could not confirm your identity',
    failedBody: 'One or more answers did not match your credit file. You can try again with new questions.',
    attemptsLeft: (n) => (n === 1 ? 'You have 1 attempt left.' : `You have ${n} attempts left.`),
    tryAgain: 'Try again with new questions',
    expiredTitle: 'Time ran out',
    expiredBody: 'The questions expired before your answers were sent. Start again with new questions.',
    startAgain: 'Start again',
    lockedMessage: 'Too many unsuccessful verification attempts.',
    checkingLock: 'Checking when you can try again…',
  },
  es: {
    title: 'Confirme su identidad',
    intro: 'Para proteger su información, responda unas preguntas que solo usted debería saber, según su expediente de crédito.',
    rules: (questions, minutes) => `Son ${questions} preguntas. Tiene ${minutes} minutos para responderlas.`,
    start: 'Comenzar la verificación',
    starting: 'Preparando las preguntas…',
    progress: (step, total) => `Pregunta ${step} de ${total}`,
    timeLeft: 'Tiempo restante',
    timeLeftSpoken: (minutes, seconds) => (minutes > 0 ? `Quedan ${minutes} min ${seconds} s` : `Quedan ${seconds} segundos`),
    expiringSoon: 'Queda menos de un minuto. Termine sus respuestas pronto o tendrá que empezar de nuevo.',
    chooseAnswer: 'Elija una respuesta para continuar.',
    back: 'Atrás',
    next: 'Siguiente pregunta',
    submit: 'Enviar respuestas',
    submitting: 'Revisando sus respuestas…',
    verified: 'Su identidad está confirmada.',
    failedTitle: 'No pudimos confirmar su identidad',
    failedBody: 'Una o más respuestas no coinciden con su expediente de crédito. Puede intentarlo de nuevo con otras preguntas.',
    attemptsLeft: (n) => (n === 1 ? 'Le queda 1 intento.' : `Le quedan ${n} intentos.`),
    tryAgain: 'Intentar de nuevo con otras preguntas',
    expiredTitle: 'Se acabó el tiempo',
    expiredBody: 'Las preguntas caducaron antes de enviar sus respuestas. Empiece de nuevo con otras preguntas.',
    startAgain: 'Empezar de nuevo',
    lockedMessage: 'Demasiados intentos de verificación fallidos.',
    checkingLock: 'Comprobando cuándo puede intentarlo de nuevo…',
  },
};
