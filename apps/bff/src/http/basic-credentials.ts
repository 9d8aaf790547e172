/** Client credentials as presented: a client id and secret, not yet checked. */
export interface PresentedCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * `Authorization: Basic …` as OAuth's client_secret_basic sends it (RFC 6749 §2.3.1): the id and secret are each
 * form-urlencoded (`+` is a space) before base64. The one parser for the token endpoint and its rate count, so a
 * client id is counted as the client it authenticates as. Undefined for a malformed header.
 */
export const parseBasicCredentials = (authorization: string): PresentedCredentials | undefined => {
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 1) return undefined;
  const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  try {
    return { clientId: formDecode(decoded.slice(0, separator)), clientSecret: formDecode(decoded.slice(separator + 1)) };
  } catch {
    return undefined;
  }
};

export const isBasicAuthorization = (authorization: string | undefined): authorization is string =>
  authorization !== undefined && /^basic /i.test(authorization);
