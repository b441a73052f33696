-- The soak's traffic (bench/soak.py), for wrk: a person's mix of reads, likes, comments and
-- picture uploads, each as one of the seeded people, paced by `delay()` to the rate asked for.
-- Arguments: tokens file, post ids file, PNG file, delay in ms between a connection's requests.

local tokens, posts, png, pause = {}, {}, "", 0
local counter = 0
local boundary = "soak-boundary-7d1f"
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "tally.lua")

function init(args)
  for line in io.lines(args[1]) do tokens[#tokens + 1] = line end
  for line in io.lines(args[2]) do posts[#posts + 1] = line end
  local f = assert(io.open(args[3], "rb"))
  png = f:read("*a")
  f:close()
  pause = tonumber(args[4]) or 0
  counter = math.random(1, 1000000)
end

function delay()
  return pause
end

function request()
  counter = counter + 1
  local token = tokens[(counter % #tokens) + 1]
  local post = posts[((counter * 7919) % #posts) + 1]
  local headers = { ["Authorization"] = "Bearer " .. token }
  local r = counter % 100
  if r < 30 then
    return wrk.format("GET", "/posts/feed?limit=10", headers)
  elseif r < 50 then
    return wrk.format("GET", "/posts/" .. post, headers)
  elseif r < 65 then
    return wrk.format("GET", "/posts/" .. post .. "/comments?limit=20&offset=0", headers)
  elseif r < 82 then
    return wrk.format("POST", "/posts/" .. post .. "/like", headers)
  elseif r < 97 then
    headers["Content-Type"] = "application/json"
    return wrk.format("POST", "/posts/" .. post .. "/comments", headers, '{"content":"a soak comment"}')
  else
    headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
    local body = "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"soak.png\"\r\n"
      .. "Content-Type: image/png\r\n\r\n" .. png .. "\r\n--" .. boundary .. "--\r\n"
    return wrk.format("POST", "/posts/media", headers, body)
  end
end

function done(summary, latency, requests)
  local totals = tally()
  io.write(string.format("SOAK ok=%d client_errors=%d server_errors=%d socket_errors=%d p50_ms=%.2f p99_ms=%.2f first_error=%s\n",
    totals.ok, totals.client_errors, totals.server_errors,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, totals.first_error))
end
