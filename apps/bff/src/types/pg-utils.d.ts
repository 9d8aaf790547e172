// The driver's own conversion of a parameter to the text it sends (node-postgres ships it untyped).
declare module 'pg/lib/utils.js' {
  const utils: {
    prepareValue(value: unknown): string | Buffer | null;
    escapeLiteral(text: string): string;
  };
  export default utils;
}
