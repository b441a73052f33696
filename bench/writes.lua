-- Writes for `make bench` (bench/run.py): like toggles or new comments, each request as one of
-- the signed-in people on one of the newest posts. Arguments: tokens file, post ids file, and
-- `like` or `comment`. Counts failures by kind for run.py (a 503 is "database is locked").

local tokens, posts, kind = {}, {}, "like"
local counter = 0
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "tally.lua")

function init(args)
  for line in io.lines(args[1]) do tokens[#tokens + 1] = line end
  for line in io.lines(args[2]) do posts[#posts + 1] = line end
  kind = args[3]
  counter = math.random(1, 1000000)
end

function request()
  counter = counter + 1
  local headers = { ["Authorization"] = "Bearer " .. tokens[(counter % #tokens) + 1] }
  local post = posts[((counter * 7919) % #posts) + 1]
  if kind == "like" then
    return wrk.format("POST", "/posts/" .. post .. "/like", headers)
  end
  headers["Content-Type"] = "application/json"
  return wrk.format("POST", "/posts/" .. post .. "/comments", headers, '{"content":"a bench comment"}')
end

function done(summary, latency, requests)
  local totals = tally()
  io.write(string.format("WRITES ok=%d client_errors=%d server_errors=%d\n", totals.ok, totals.client_errors, totals.server_errors))
  io.write("FIRST_ERROR " .. totals.first_error .. "\n")
end
