using System;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Xunit;

namespace CoarseTimers.AnalyzerHost.Tests;

/// <summary>A project folder stands for one compilation per target family it builds, as <c>dotnet build</c> does.</summary>
public sealed class TargetBuildTests : TemporaryFolderTest
{
    public TargetBuildTests()
        : base("targetbuild")
    {
    }

    [Fact]
    public void A_project_with_one_modern_target_is_one_net8_build()
    {
        var builds = TargetBuild.Of("<Project><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>", Root, Root);

        var build = Assert.Single(builds);
        Assert.Equal("net8.0", build.Framework);
        Assert.Contains("NET6_0_OR_GREATER", build.Symbols);
        Assert.DoesNotContain("NETFRAMEWORK", build.Symbols);
    }

    [Fact]
    public void Older_targets_add_one_build_each_with_the_sdk_symbols_and_their_own_constants()
    {
        const string project = """
            <Project>
              <PropertyGroup>
                <TargetFrameworks>net472;netstandard2.0;net8.0</TargetFrameworks>
                <DefineConstants>$(DefineConstants);EVERYWHERE</DefineConstants>
              </PropertyGroup>
              <PropertyGroup Condition=" '$(TargetFramework)' == 'net472' ">
                <DefineConstants>$(DefineConstants);NETFX</DefineConstants>
              </PropertyGroup>
              <PropertyGroup Condition=" '$(Configuration)' == 'Debug' ">
                <DefineConstants>$(DefineConstants);ONLY_IN_DEBUG</DefineConstants>
              </PropertyGroup>
            </Project>
            """;

        var builds = TargetBuild.Of(project, Root, Root);

        Assert.Equal(new[] { "net8.0", "net472", "netstandard2.0" }, builds.Select(b => b.Framework));
        var net472 = builds[1].Symbols;
        Assert.Contains("NETFRAMEWORK", net472);
        Assert.Contains("NET472", net472);
        Assert.Contains("NET461_OR_GREATER", net472);
        Assert.DoesNotContain("NET48_OR_GREATER", net472);
        Assert.DoesNotContain("NET6_0_OR_GREATER", net472);
        Assert.Contains("NETFX", net472);
        Assert.Contains("NETSTANDARD2_0_OR_GREATER", builds[2].Symbols);
        Assert.DoesNotContain("NETFX", builds[2].Symbols);
        Assert.All(builds, b => Assert.Contains("EVERYWHERE", b.Symbols));
        Assert.All(builds, b => Assert.DoesNotContain("ONLY_IN_DEBUG", b.Symbols));
        Assert.All(builds, b => Assert.DoesNotContain(b.Symbols, s => s.Contains('$', StringComparison.Ordinal)));
    }

    [Fact]
    public void Target_frameworks_come_from_a_Directory_Build_props_above_the_project()
    {
        File.WriteAllText(Path.Combine(Root, "Directory.Build.props"), "<Project><PropertyGroup><TargetFrameworks>netstandard2.1;net8.0</TargetFrameworks></PropertyGroup></Project>");
        var folder = Directory.CreateDirectory(Path.Combine(Root, "src", "Lib")).FullName;

        var builds = TargetBuild.Of("<Project />", folder, Root);

        Assert.Equal(new[] { "net8.0", "netstandard2.1" }, builds.Select(b => b.Framework));
    }

    [Fact]
    public void Older_target_builds_are_capped()
    {
        var builds = TargetBuild.Of("<Project><PropertyGroup><TargetFrameworks>net462;netstandard2.0;netcoreapp3.1;net8.0</TargetFrameworks></PropertyGroup></Project>", Root, Root);

        Assert.Equal(1 + TargetBuild.MaxOlderBuilds, builds.Length);
    }

    [Fact]
    public void A_multi_target_run_reports_what_any_target_compiles_once()
    {
        File.WriteAllText(Path.Combine(Root, "Lib.csproj"), "<Project><PropertyGroup><TargetFrameworks>net472;net8.0</TargetFrameworks></PropertyGroup></Project>");
        File.WriteAllText(Path.Combine(Root, "Code.cs"), """
            class C
            {
                void Both() => Flag();
            #if NETFRAMEWORK
                void OnlyOld() => Flag();
            #else
                void OnlyNew() => Flag();
            #endif
                static void Flag() { }
            }
            """);
        var project = SourceProject.FromFolder(Root, Root);

        var run = AnalyzerRun.Run(project, ImmutableArray.Create<DiagnosticAnalyzer>(new FlagCallAnalyzer()));

        var methods = run.Diagnostics.Select(d => d.GetMessage()).OrderBy(m => m, StringComparer.Ordinal);
        Assert.Equal(new[] { "Both", "OnlyNew", "OnlyOld" }, methods);
    }

    /// <summary>Reports every call of a method named Flag, with the calling method's name as the message.</summary>
    [DiagnosticAnalyzer(LanguageNames.CSharp)]
    private sealed class FlagCallAnalyzer : DiagnosticAnalyzer
    {
        private static readonly DiagnosticDescriptor s_rule = new("TB0001", "flag", "{0}", "test", DiagnosticSeverity.Warning, isEnabledByDefault: true);

        public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(s_rule);

        public override void Initialize(AnalysisContext context)
        {
            context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
            context.EnableConcurrentExecution();
            context.RegisterSyntaxNodeAction(
                c =>
                {
                    if (c.Node is InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "Flag" } } call &&
                        call.FirstAncestorOrSelf<MethodDeclarationSyntax>() is { } method)
                    {
                        c.ReportDiagnostic(Diagnostic.Create(s_rule, call.GetLocation(), method.Identifier.ValueText));
                    }
                },
                SyntaxKind.InvocationExpression);
        }
    }
}
