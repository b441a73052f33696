CREATE TABLE tags (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    color TEXT NOT NULL
);
INSERT INTO tags (id, name, color) VALUES
    ('146fb41a-2f3e-48c7-bef9-01de0279dfd7', 'Listener', '#FFFFFF'),
    ('b361c6f9-9425-4548-8c07-cb408140c304', 'Musician', '#6D01D0'),
    ('5ee121a6-b467-4ead-b3f7-00e1ce6097d5', 'Learner', '#000C9C');
