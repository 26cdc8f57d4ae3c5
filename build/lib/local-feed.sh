# Sourced by build/e2e.sh and build/real-world.sh: how a user's project installs CoarseTimers from a local feed.
# The feed serves only CoarseTimers (package source mapping), everything else comes from the usual registry, and the
# caller exports NUGET_PACKAGES to a private folder so a package of the same version in the user cache is never used.

# write_local_feed_config DIR FEED: writes DIR/nuget.config, replacing any sources the project configured itself.
write_local_feed_config() {
  cat >"$1/nuget.config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="local" value="$2" />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
  </packageSources>
  <packageSourceMapping>
    <clear />
    <packageSource key="local"><package pattern="CoarseTimers" /></packageSource>
    <packageSource key="nuget.org"><package pattern="*" /></packageSource>
  </packageSourceMapping>
</configuration>
XML
}

# coarse_timers_version REPO: the version build/pack.sh produces.
coarse_timers_version() {
  dotnet msbuild "$1/src/Runtime/CoarseTimers.csproj" -getProperty:Version -p:TargetFramework=net8.0 2>/dev/null | tr -d '[:space:]'
}
