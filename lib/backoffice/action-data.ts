// What some back-office actions answer their forms with: the server action (app/backoffice/...) returns
// it and the form (components/backoffice/...) shows it, so the shape lives here, below both.

/** A key just created or rolled: its secret is shown once. */
export interface NewKey {
  apiKey: string;
  name: string;
  prefix: string;
  oldKeyValidUntil?: string;
}

/** A second factor being set up: the secret, its otpauth:// URI and the QR code of it. */
export interface Enrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}
