/**
 * The consent screens a visit may need after enrolment, in one lazily loaded chunk: the stopped / asked-again
 * screen and the withdraw screen share their strings, and most visits need neither.
 */
export { default as ConsentScreen } from './ConsentScreen.tsx';
export { default as WithdrawScreen } from './WithdrawScreen.tsx';
