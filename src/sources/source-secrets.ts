/** What a source's password is sealed for (common/crypto/secret-box.ts): it opens as nothing else, nor anything else as it. */
export const PASSWORD_CONTEXT = 'calendar-events source password';
