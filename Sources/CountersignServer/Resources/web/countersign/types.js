// @ts-check
/** The shapes the client's methods take and answer (JSDoc types only; nothing at run time). @module */

/** @typedef {{amount: number, productCode: string, recipientPhone: string, supplierSlug?: string}} AirtimeIntent */
/** @typedef {'signup' | 'login' | 'bind-device' | 'recover' | 'change-phone'} VerificationPurpose */
/** @typedef {{pin?: string, verificationId?: string, code?: string, assertion?: object}} StepUp */
/** @typedef {{phone: string, phoneVerified: boolean, pinLockedUntil?: string | null, pinResetRequired: boolean,
 *   pinCoolingOffUntil?: string | null, deviceCoolingOffUntil?: string | null, newDeviceMaxAmount: number,
 *   currency: string}} AccountSecurity */
/** @typedef {{id: string, status: string, payeePhone: string, payeeName?: string, amount: number,
 *   currency: string, note?: string, quote?: any, challenge?: any, error?: {code: string, message: string},
 *   sequence: number, createdAt: string, updatedAt: string}} TransferDocument */


export {};
