DROP TABLE passkey_ceremonies;
DROP TABLE passkeys;
