DROP TABLE recovery_codes;
DROP TABLE two_factor;
