using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using CoarseTimers.CodeFixes.Fixes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.Analyzers;

/// <summary>
/// Code as it is being typed, made systematically: a source with a site of every rule, cut short after a token and
/// with that token deleted, for every third token. No analyzer may throw (AD0001) and no code fix may throw while it registers or
/// computes its edit, whatever the rules report on the broken code. (A random-mutation run over the corpus files, 11,000
/// sources, found none either; this keeps the property under test.)
/// </summary>
public class MutationRobustnessTests
{
    private const string Source = """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        class Handler
        {
            private CancellationTokenSource? _pending;
            private Timer? _reply;
            private volatile bool _ready;

            public async Task<bool> HandleAsync(Task work, TimeSpan timeout, CancellationToken ct)
            {
                using var cts = new CancellationTokenSource(timeout);
                using var linked = CancellationTokenSource.CreateLinkedTokenSource(ct);
                linked.CancelAfter(timeout);
                _pending ??= new CancellationTokenSource(5000);
                var winner = await Task.WhenAny([work, Task.Delay(timeout, linked.Token)]);
                for (var i = 0; i < 3; i++) { await Task.Delay(5, ct); }
                _reply = new Timer(_ => { }, null, 5000, Timeout.Infinite);
                using (var watchdog = new Timer(_ => { }, null, 1000, Timeout.Infinite)) { await work; }
                SpinWait.SpinUntil(() => _ready, TimeSpan.FromMilliseconds(timeout.TotalMilliseconds));
                return winner == work;
            }
        }
        """;

    private static readonly ImmutableArray<DiagnosticAnalyzer> s_analyzers = typeof(CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer).Assembly.GetTypes()
        .Where(t => !t.IsAbstract && typeof(DiagnosticAnalyzer).IsAssignableFrom(t) && t.GetCustomAttributes(typeof(DiagnosticAnalyzerAttribute), false).Length > 0)
        .Select(t => (DiagnosticAnalyzer)Activator.CreateInstance(t)!)
        .ToImmutableArray();

    private static readonly CodeFixProvider[] s_fixers = typeof(TaskDelayCodeFixProvider).Assembly.GetTypes()
        .Where(t => !t.IsAbstract && typeof(CodeFixProvider).IsAssignableFrom(t) && t.GetCustomAttributes(typeof(ExportCodeFixProviderAttribute), false).Length > 0)
        .Select(t => (CodeFixProvider)Activator.CreateInstance(t)!)
        .ToArray();

    public static TheoryData<int> Slices => new() { 0, 1, 2, 3 };

    [Fact]
    public async Task The_unbroken_source_has_a_site_of_every_rule_and_a_fix_for_each()
    {
        var (diagnostics, problems, fixes) = await RunAsync(Source);

        Assert.Empty(problems);
        Assert.Equal(new[] { "CT0001", "CT0002", "CT0003", "CT0004" }, diagnostics.Select(d => d.Id).Distinct().OrderBy(id => id, StringComparer.Ordinal));
        Assert.True(fixes >= 4, $"only {fixes} fixes offered");
    }

    [Theory]
    [MemberData(nameof(Slices))]
    public async Task No_analyzer_or_fix_throws_on_a_truncated_or_token_deleted_source(int slice)
    {
        var tokens = CSharpSyntaxTree.ParseText(Source).GetRoot().DescendantTokens().ToArray();
        var failures = new List<string>();
        // Every third token, split over four slices that run in parallel: a cut or a gap near every construct of the
        // source, at a cost CI can carry.
        const int Stride = 3;
        for (var i = slice * Stride; i < tokens.Length; i += Slices.Count * Stride)
        {
            var span = tokens[i].Span;
            foreach (var broken in new[] { Source.Substring(0, span.End), Source.Remove(span.Start, span.Length) })
            {
                var (_, problems, _) = await RunAsync(broken);
                failures.AddRange(problems.Select(p => $"token {i} '{tokens[i].Text}': {p}"));
            }
        }

        Assert.Empty(failures);
    }

    private static async Task<(ImmutableArray<Diagnostic> Diagnostics, List<string> Problems, int Fixes)> RunAsync(string text)
    {
        var problems = new List<string>();
        using var workspace = new AdhocWorkspace();
        var projectId = ProjectId.CreateNewId();
        var documentId = DocumentId.CreateNewId(projectId);
        var solution = workspace.CurrentSolution
            .AddProject(ProjectInfo.Create(projectId, VersionStamp.Default, "Contoso.Gateway", "Contoso.Gateway", LanguageNames.CSharp,
                compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable),
                metadataReferences: TestReferences.Net80.Add(TestReferences.Runtime)))
            .AddDocument(documentId, "Handler.cs", SourceText.From(text), filePath: "/src/Handler.cs")
            .AddAnalyzerConfigDocument(DocumentId.CreateNewId(projectId), ".editorconfig",
                SourceText.From("root = true\n[*.cs]\ncoarse_timers.hot_path_scope = all\n"), filePath: "/src/.editorconfig");
        var project = solution.GetProject(projectId)!;
        var compilation = (await project.GetCompilationAsync())!;
        var options = new CompilationWithAnalyzersOptions(project.AnalyzerOptions,
            (exception, analyzer, _) => problems.Add($"{analyzer.GetType().Name} threw {exception}"), concurrentAnalysis: false, logAnalyzerExecutionTime: false);
        var diagnostics = await compilation.WithAnalyzers(s_analyzers, options).GetAnalyzerDiagnosticsAsync();
        problems.AddRange(diagnostics.Where(d => d.Id == "AD0001").Select(d => d.GetMessage()));

        var fixes = 0;
        var document = project.GetDocument(documentId)!;
        foreach (var diagnostic in diagnostics.Where(d => d.Id.StartsWith("CT", StringComparison.Ordinal)))
        {
            foreach (var fixer in s_fixers.Where(f => f.FixableDiagnosticIds.Contains(diagnostic.Id)))
            {
                var actions = new List<CodeAction>();
                try
                {
                    await fixer.RegisterCodeFixesAsync(new CodeFixContext(document, diagnostic, (action, _) => actions.Add(action), CancellationToken.None));
                    foreach (var action in actions)
                    {
                        await action.GetOperationsAsync(CancellationToken.None);
                        fixes++;
                    }
                }
                catch (Exception exception)
                {
                    problems.Add($"{fixer.GetType().Name} threw on {diagnostic.Id} at {diagnostic.Location.GetLineSpan().StartLinePosition}: {exception}");
                }
            }
        }

        return (diagnostics, problems, fixes);
    }
}
