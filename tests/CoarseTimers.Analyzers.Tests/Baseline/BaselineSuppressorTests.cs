using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Baseline;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.Baseline;

/// <summary>The baseline: keyed by rule, file and member, counted per key, never by line.</summary>
public class BaselineSuppressorTests
{
    private const string Sender = @"using System;
using System.Threading.Tasks;

namespace App;

class Sender
{
    public async Task SendAsync(int message)
    {
        for (var attempt = 0; attempt < 3; attempt++)
        {
            await Task.Delay(5);
        }
    }

    public async Task PollAsync()
    {
        while (true)
        {
            Func<Task> wait = () => Task.Delay(10);
            await wait();
        }
    }
}
";

    private const string BaselineOfSender =
        "# CoarseTimers baseline\n" +
        "CT0001\t1\tsrc/Sender.cs\tM:App.Sender.SendAsync(System.Int32)~System.Threading.Tasks.Task\n" +
        "CT0001\t1\tsrc/Sender.cs\tM:App.Sender.PollAsync~System.Threading.Tasks.Task\n";

    [Fact]
    public async Task Diagnostics_carry_their_member_lambdas_included()
    {
        var diagnostics = await Run(Sender, baseline: null);
        Assert.Equal(
            new[] { "M:App.Sender.SendAsync(System.Int32)~System.Threading.Tasks.Task", "M:App.Sender.PollAsync~System.Threading.Tasks.Task" },
            diagnostics.Select(d => d.Properties[BaselineMember.PropertyName]).ToArray());
        Assert.All(diagnostics, d => Assert.False(d.IsSuppressed));
    }

    [Fact]
    public async Task Baselined_sites_are_suppressed_and_survive_unrelated_edits()
    {
        // Lines added above both sites move them; the keys do not change.
        var edited = Sender.Replace("class Sender\n{", "class Sender\n{\n    private int _unrelated;\n\n    public int Unrelated() => _unrelated++;\n");
        Assert.NotEqual(Sender, edited);
        var diagnostics = await Run(edited, BaselineOfSender);
        Assert.Equal(2, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.True(d.IsSuppressed));
    }

    [Fact]
    public async Task A_new_site_in_a_new_member_is_reported_alone()
    {
        var withNew = Sender.Replace("    public async Task PollAsync()", "    public async Task RetryAsync()\n    {\n        while (true) { await Task.Delay(1); }\n    }\n\n    public async Task PollAsync()");
        var diagnostics = await Run(withNew, BaselineOfSender);
        var reported = Assert.Single(diagnostics, d => !d.IsSuppressed);
        Assert.Equal("M:App.Sender.RetryAsync~System.Threading.Tasks.Task", reported.Properties[BaselineMember.PropertyName]);
    }

    [Fact]
    public async Task A_member_over_its_count_has_every_site_reported()
    {
        var twice = Sender.Replace("            await Task.Delay(5);", "            await Task.Delay(5);\n            await Task.Delay(6);");
        var diagnostics = await Run(twice, BaselineOfSender);
        Assert.Equal(2, diagnostics.Count(d => !d.IsSuppressed && d.Properties[BaselineMember.PropertyName] == "M:App.Sender.SendAsync(System.Int32)~System.Threading.Tasks.Task"));
        Assert.Single(diagnostics, d => d.IsSuppressed);
    }

    [Fact]
    public async Task Other_rule_other_file_or_malformed_lines_suppress_nothing()
    {
        var baseline = "CT0002\t1\tsrc/Sender.cs\tM:App.Sender.PollAsync~System.Threading.Tasks.Task\n" +
            "CT0001\t1\tsrc/Other.cs\tM:App.Sender.PollAsync~System.Threading.Tasks.Task\n" +
            "CT0001\tmany\tsrc/Sender.cs\tM:App.Sender.PollAsync~System.Threading.Tasks.Task\n" +
            "CT0001\t1\tsrc/Sender.cs\n" +
            "\t\t\t\n";
        var diagnostics = await Run(Sender, baseline);
        Assert.Equal(2, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.False(d.IsSuppressed));
    }

    private static async Task<ImmutableArray<Diagnostic>> Run(string source, string? baseline)
    {
        var tree = CSharpSyntaxTree.ParseText(source, path: "/repo/src/Sender.cs");
        var compilation = CSharpCompilation.Create("App", new[] { tree }, TestReferences.Net80, new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        var additional = baseline is null
            ? ImmutableArray<AdditionalText>.Empty
            : ImmutableArray.Create<AdditionalText>(new InMemoryText("/repo/" + BaselineFile.FileName, baseline));
        var analyzers = ImmutableArray.Create<DiagnosticAnalyzer>(new TaskDelayAnalyzer(), new BaselineSuppressor());
        var options = new CompilationWithAnalyzersOptions(new AnalyzerOptions(additional), onAnalyzerException: null, concurrentAnalysis: false, logAnalyzerExecutionTime: false, reportSuppressedDiagnostics: true);
        var diagnostics = await compilation.WithAnalyzers(analyzers, options).GetAnalyzerDiagnosticsAsync();
        Assert.DoesNotContain(diagnostics, d => d.Id == "AD0001");
        return diagnostics.Where(d => d.Id == DiagnosticIds.TaskDelay).OrderBy(d => d.Location.SourceSpan.Start).ToImmutableArray();
    }

    private sealed class InMemoryText : AdditionalText
    {
        private readonly SourceText _text;

        public InMemoryText(string path, string text)
        {
            Path = path;
            _text = SourceText.From(text);
        }

        public override string Path { get; }

        public override SourceText GetText(CancellationToken cancellationToken = default) => _text;
    }
}
