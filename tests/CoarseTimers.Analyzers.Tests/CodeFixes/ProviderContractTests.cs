using System.Collections.Generic;
using System.Composition;
using System.Linq;
using System.Reflection;
using CoarseTimers.CodeFixes.Fixes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>
/// What hosts rely on without running a fix: <c>dotnet format analyzers</c> discovers providers through the export
/// attribute and refuses a provider whose Fix All lacks solution scope; the IDE shares one instance.
/// </summary>
public class ProviderContractTests
{
    public static IEnumerable<object[]> Providers() =>
    [
        [new TaskDelayCodeFixProvider(), "CT0001"],
        [new TimeoutCancellationTokenSourceCodeFixProvider(), "CT0002"],
        [new ThreadingTimerCodeFixProvider(), "CT0003"],
        [new SpinUntilCodeFixProvider(), "CT0004"],
    ];

    [Theory]
    [MemberData(nameof(Providers))]
    public void One_rule_per_provider_fixed_at_every_scope(CodeFixProvider provider, string ruleId)
    {
        Assert.Equal(ruleId, Assert.Single(provider.FixableDiagnosticIds));
        var scopes = provider.GetFixAllProvider()!.GetSupportedFixAllScopes();
        Assert.Contains(FixAllScope.Document, scopes);
        Assert.Contains(FixAllScope.Project, scopes);
        Assert.Contains(FixAllScope.Solution, scopes);
    }

    [Fact]
    public void Every_provider_is_exported_for_CSharp_and_shared()
    {
        foreach (var provider in Providers().Select(row => (CodeFixProvider)row[0]))
        {
            var export = provider.GetType().GetCustomAttribute<ExportCodeFixProviderAttribute>();
            Assert.NotNull(export);
            Assert.Equal([LanguageNames.CSharp], export.Languages);
            Assert.NotNull(provider.GetType().GetCustomAttribute<SharedAttribute>());
        }
    }
}
