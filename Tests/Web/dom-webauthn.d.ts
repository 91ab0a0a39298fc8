// WebAuthn members the page uses that TypeScript 4.8's DOM library (Debian's node-typescript) does
// not declare yet; newer libraries declare them with these same types.
interface AuthenticatorAttestationResponse {
  getTransports(): string[];
}

interface PublicKeyCredential {
  readonly authenticatorAttachment: string | null;
}
