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
/// project that compiles it references the runtime, so that no project's build breaks.
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

    private static ProjectId AddProject(AdhocWorkspace workspace, string name, IEnumerable<MetadataReference> references) =>
        workspace.AddProject(ProjectInfo.Create(
            ProjectId.CreateNewId(), VersionStamp.Default, name, name, LanguageNames.CSharp,
            compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary),
            metadataReferences: references)).Id;

    private static DocumentId AddDocument(AdhocWorkspace workspace, ProjectId project, string name, string path)
    {
        var id = DocumentId.CreateNewId(project);
        var info = DocumentInfo.Create(id, name, loader: TextLoader.From(TextAndVersion.Create(SourceText.From(Source), VersionStamp.Default)), filePath: path);
        Assert.True(workspace.TryApplyChanges(workspace.CurrentSolution.AddDocument(info)));
        return id;
    }

    // The CT0001 fixes offered for the document's diagnostics (the default model flags the short poll).
    private static async Task<List<CodeAction>> FixesAsync(Document document)
    {
        var compilation = (await document.Project.GetCompilationAsync())!;
        var tree = (await document.GetSyntaxTreeAsync())!;
        var diagnostics = (await compilation.WithAnalyzers(ImmutableArray.Create<DiagnosticAnalyzer>(new TaskDelayAnalyzer())).GetAnalyzerDiagnosticsAsync())
            .Where(d => d.Location.SourceTree == tree).ToList();
        Assert.Single(diagnostics);

        var actions = new List<CodeAction>();
        var context = new CodeFixContext(document, diagnostics[0], (action, _) => actions.Add(action), CancellationToken.None);
        await new TaskDelayCodeFixProvider().RegisterCodeFixesAsync(context);
        return actions;
    }
}
