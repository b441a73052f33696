-- Writes for `make bench` (bench/run.py): like toggles or new comments, each request as one of
-- the signed-in people on one of the newest posts. Arguments: tokens file, post ids file, and
-- `like` or `comment`. Counts failures by kind for run.py (a 503 is "database is locked").

local tokens, posts, kind = {}, {}, "like"
local counter = 0
ok, client_errors, server_errors = 0, 0, 0
first_error = ""

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

function response(status, headers, body)
  if status < 400 then
    ok = ok + 1
  else
    if status < 500 then client_errors = client_errors + 1 else server_errors = server_errors + 1 end
    if first_error == "" then first_error = status .. " " .. string.sub(body or "", 1, 200) end
  end
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local totals = { ok = 0, client = 0, server = 0, first = "" }
  for _, t in ipairs(threads) do
    totals.ok = totals.ok + t:get("ok")
    totals.client = totals.client + t:get("client_errors")
    totals.server = totals.server + t:get("server_errors")
    if totals.first == "" then totals.first = t:get("first_error") end
  end
  io.write(string.format("WRITES ok=%d client_errors=%d server_errors=%d\n", totals.ok, totals.client, totals.server))
  io.write("FIRST_ERROR " .. totals.first .. "\n")
end
