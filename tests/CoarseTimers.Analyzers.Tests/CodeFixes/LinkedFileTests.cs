using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using CoarseTimers.CodeFixes.Fixes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>
/// A file linked into several projects is one text for all of them: a rewrite to the runtime is offered only when every
/// project that compiles it references the runtime, so that no project's build breaks; and each target of a
/// multi-targeted project, fixing it under its own symbols, writes the same text.
/// </summary>
public class LinkedFileTests
{
    private const string Source = """
        using System.Threading.Tasks;

        static class Poller
        {
            public static async Task WaitAsync(System.Func<bool> done)
            {
                while (!done())
                {
                    await Task.Delay(5);
                }
            }
        }
        """;

    [Fact]
    public async Task A_file_linked_into_a_project_without_the_runtime_gets_no_fix()
    {
        using var workspace = new AdhocWorkspace();
        var withRuntime = AddProject(workspace, "WithRuntime", TestReferences.Net80.Add(TestReferences.Runtime));
        var withoutRuntime = AddProject(workspace, "WithoutRuntime", TestReferences.Net80);
        var linked = AddDocument(workspace, withRuntime, "Shared.cs", "/shared/Shared.cs");
        AddDocument(workspace, withoutRuntime, "Shared.cs", "/shared/Shared.cs");
        var own = AddDocument(workspace, withRuntime, "Own.cs", "/with/Own.cs");

        Assert.Single(workspace.CurrentSolution.GetDocument(linked)!.GetLinkedDocumentIds());
        Assert.Empty(await FixesAsync(workspace.CurrentSolution.GetDocument(linked)!));
        Assert.Single(await FixesAsync(workspace.CurrentSolution.GetDocument(own)!));
    }

    [Fact]
    public async Task A_file_linked_into_projects_that_all_reference_the_runtime_is_fixed()
    {
        using var workspace = new AdhocWorkspace();
        var first = AddProject(workspace, "First", TestReferences.Net80.Add(TestReferences.Runtime));
        var second = AddProject(workspace, "Second", TestReferences.Net80.Add(TestReferences.Runtime));
        var linked = AddDocument(workspace, first, "Shared.cs", "/shared/Shared.cs");
        AddDocument(workspace, second, "Shared.cs", "/shared/Shared.cs");

        Assert.Single(await FixesAsync(workspace.CurrentSolution.GetDocument(linked)!));
    }

    private const string ResetSource = """
        using System.Threading;

        class Sender
        {
            private CancellationTokenSource _cts = new();

            public void Send()
            {
                if (!_cts.TryReset())
                {
                    _cts = new CancellationTokenSource();
                }

                _cts.CancelAfter(100);
            }
        }
        """;

    // The runtime's netstandard2.0 build as a net6.0 or net7.0 target sees it: a coarse source with no TryReset of its own.
    private const string RuntimeWithoutTryReset = """
        namespace CoarseTimers
        {
            public class CoarseCancellationTokenSource : System.Threading.CancellationTokenSource
            {
                public CoarseCancellationTokenSource() { }
                public new void CancelAfter(int millisecondsDelay) { }
            }
        }
        """;

    // A source reset with TryReset is rewritten only when every target's runtime has its own TryReset (net8.0 and later):
    // where one target gets the netstandard2.0 build, its TryReset would be the BCL's and leave the coarse timeout armed.
    [Fact]
    public async Task A_reset_source_is_rewritten_only_when_every_target_resets_the_coarse_one()
    {
        using var workspace = new AdhocWorkspace();
        var net8 = AddProject(workspace, "Net8", TestReferences.Net80.Add(TestReferences.Runtime));
        var net6 = AddProject(workspace, "Net6", TestReferences.Net80);
        workspace.AddDocument(net6, "Runtime.cs", SourceText.From(RuntimeWithoutTryReset));
        var net8Only = AddProject(workspace, "Net8Only", TestReferences.Net80.Add(TestReferences.Runtime));
        var alone = AddDocument(workspace, net8Only, "Alone.cs", "/net8/Alone.cs", ResetSource);
        var shared = AddDocument(workspace, net8, "Shared.cs", "/shared/Shared.cs", ResetSource);
        AddDocument(workspace, net6, "Shared.cs", "/shared/Shared.cs", ResetSource);

        Assert.Single(await FixesAsync(workspace.CurrentSolution.GetDocument(alone)!, new TimeoutCancellationTokenSourceAnalyzer(), new TimeoutCancellationTokenSourceCodeFixProvider()));
        Assert.Empty(await FixesAsync(workspace.CurrentSolution.GetDocument(shared)!, new TimeoutCancellationTokenSourceAnalyzer(), new TimeoutCancellationTokenSourceCodeFixProvider()));
    }

    private const string Namespaces = "namespace Alpha { public class A1 { } } namespace Beta { public class B1 { } } namespace Delta { public class D1 { } }";

    // Each target of a multi-targeted project fixes the file under its own symbols; the directive must land where every
    // target compiles it, at the same place from each (dotnet format keeps both places when they differ: CS0105).
    [Theory]
    [InlineData("""
        using Alpha;
        #if NETSTANDARD2_0
        using Beta;
        #endif
        using Delta;
        using System;
        using System.Threading.Tasks;
        """, """
        using Alpha;
        #if NETSTANDARD2_0
        using Beta;
        #endif
        using CoarseTimers;
        using Delta;
        using System;
        using System.Threading.Tasks;
        """)]
    [InlineData("""
        using System;
        using System.Threading.Tasks;
        #if DEBUG
        using System.Diagnostics;
        #endif
        using Alpha;
        """, """
        using System;
        using System.Threading.Tasks;
        #if DEBUG
        using System.Diagnostics;
        #endif
        using Alpha;
        using CoarseTimers;
        """)]
    public async Task With_usings_split_by_if_blocks_the_import_goes_where_every_target_compiles_it(string usings, string expectedUsings)
    {
        var fixedText = await FixedByBothTargetsAsync(usings);

        Assert.StartsWith(expectedUsings.ReplaceLineEndings("\n") + "\n", fixedText.ReplaceLineEndings("\n"), System.StringComparison.Ordinal);
        Assert.Contains("await CoarseTimer.Delay(5);", fixedText, System.StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""
        #if DEBUG
        using System;
        using System.Threading.Tasks;
        #else
        using System.Threading.Tasks;
        #endif
        """)]
    [InlineData("""
        #if NET
        using System.Threading.Tasks;
        #else
        using System.Linq;
        using System.Threading.Tasks;
        #endif
        """)]
    public async Task When_every_using_sits_in_an_if_block_the_names_stay_qualified(string usings)
    {
        var fixedText = await FixedByBothTargetsAsync(usings);

        Assert.DoesNotContain("using CoarseTimers;", fixedText, System.StringComparison.Ordinal);
        Assert.Contains("await CoarseTimers.CoarseTimer.Delay(5);", fixedText, System.StringComparison.Ordinal);
    }

    // The poller under these usings, fixed by a .NET target (NET, DEBUG) and a .NET Standard one: both write the same
    // text, and it compiles under either set of symbols.
    private static async Task<string> FixedByBothTargetsAsync(string usings)
    {
        var source = usings + "\n\n" + PollerBody;
        var fromNet = await FixedTextAsync(source, "NET", "DEBUG");
        var fromStandard = await FixedTextAsync(source, "NETSTANDARD2_0");

        Assert.Equal(fromNet, fromStandard);
        AssertCompiles(fromNet, "NET", "DEBUG");
        AssertCompiles(fromNet, "NETSTANDARD2_0");
        return fromNet;
    }

    private const string PollerBody = """
        static class Poller
        {
            public static async Task WaitAsync(System.Func<bool> done)
            {
                while (!done())
                {
                    await Task.Delay(5);
                }
            }
        }
        """;

    // The text of the document after the CT0001 fix, in a project compiled with these preprocessor symbols.
    private static async Task<string> FixedTextAsync(string source, params string[] symbols)
    {
        using var workspace = new AdhocWorkspace();
        var project = workspace.AddProject(ProjectInfo.Create(
            ProjectId.CreateNewId(), VersionStamp.Default, "P", "P", LanguageNames.CSharp,
            compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary),
            parseOptions: new CSharpParseOptions(preprocessorSymbols: symbols),
            metadataReferences: TestReferences.Net80.Add(TestReferences.Runtime))).Id;
        workspace.AddDocument(project, "Namespaces.cs", SourceText.From(Namespaces));
        var document = workspace.AddDocument(project, "Poller.cs", SourceText.From(source));
        var actions = await FixesAsync(document);
        var operations = await actions[0].GetOperationsAsync(CancellationToken.None);
        var changed = operations.OfType<ApplyChangesOperation>().Single().ChangedSolution.GetDocument(document.Id)!;
        return (await changed.GetTextAsync()).ToString();
    }

    private static void AssertCompiles(string source, params string[] symbols)
    {
        var options = new CSharpParseOptions(preprocessorSymbols: symbols);
        var compilation = CSharpCompilation.Create("Fixed",
            new[] { CSharpSyntaxTree.ParseText(source, options), CSharpSyntaxTree.ParseText(Namespaces, options) },
            TestReferences.Net80.Add(TestReferences.Runtime), new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
    }

    private static ProjectId AddProject(AdhocWorkspace workspace, string name, IEnumerable<MetadataReference> references) =>
        workspace.AddProject(ProjectInfo.Create(
            ProjectId.CreateNewId(), VersionStamp.Default, name, name, LanguageNames.CSharp,
            compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary),
            metadataReferences: references)).Id;

    private static DocumentId AddDocument(AdhocWorkspace workspace, ProjectId project, string name, string path, string source = Source)
    {
        var id = DocumentId.CreateNewId(project);
        var info = DocumentInfo.Create(id, name, loader: TextLoader.From(TextAndVersion.Create(SourceText.From(source), VersionStamp.Default)), filePath: path);
        Assert.True(workspace.TryApplyChanges(workspace.CurrentSolution.AddDocument(info)));
        return id;
    }

    // The CT0001 fixes offered for the document's diagnostics (the default model flags the short poll).
    private static Task<List<CodeAction>> FixesAsync(Document document) => FixesAsync(document, new TaskDelayAnalyzer(), new TaskDelayCodeFixProvider());

    // The fixes the provider offers for the analyzer's one diagnostic in the document.
    private static async Task<List<CodeAction>> FixesAsync(Document document, DiagnosticAnalyzer analyzer, CodeFixProvider provider)
    {
        var compilation = (await document.Project.GetCompilationAsync())!;
        var tree = (await document.GetSyntaxTreeAsync())!;
        var diagnostics = (await compilation.WithAnalyzers(ImmutableArray.Create(analyzer)).GetAnalyzerDiagnosticsAsync())
            .Where(d => d.Location.SourceTree == tree).ToList();
        Assert.Single(diagnostics);

        var actions = new List<CodeAction>();
        var context = new CodeFixContext(document, diagnostics[0], (action, _) => actions.Add(action), CancellationToken.None);
        await provider.RegisterCodeFixesAsync(context);
        return actions;
    }
}
