using System.Reflection;
using System.Runtime.Versioning;
using Xunit;

namespace CoarseTimers.Tests;

/// <summary>Guards that each runtime test project really runs against the build it claims to.</summary>
public class BuildTargetTests
{
    [Fact]
    public void Tests_run_against_the_intended_build_of_the_runtime()
    {
        var framework = typeof(CoarseTimer).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()!.FrameworkName;
#if COARSE_NETSTANDARD
        Assert.Equal(".NETStandard,Version=v2.0", framework);
#else
        Assert.Equal(".NETCoreApp,Version=v8.0", framework);
#endif
    }
}
