DROP TABLE data_exports;
