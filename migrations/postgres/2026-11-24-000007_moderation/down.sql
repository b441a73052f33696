DROP TABLE admin_actions;
DROP TABLE reports;
