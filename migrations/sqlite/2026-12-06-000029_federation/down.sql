DROP TABLE blocked_domains;
DROP TABLE federation_objects;
DROP TABLE federation_received;
DROP TABLE actor_keys;
DROP TABLE federation_actors;
