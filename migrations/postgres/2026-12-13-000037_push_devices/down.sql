DROP TABLE server_secrets;
DROP TABLE push_devices;
