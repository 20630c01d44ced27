#!/usr/bin/python3
# qt-crash.py — a small Qt 5 app (python3-pyqt5) that crashes (SIGSEGV)
# only after a sequence through a menu and a dialog, for the toolkit tests
# (tests/x11/test-toolkits.c). Its menus are override-redirect popups
# whose WM_NAME is empty and whose _NET_WM_NAME names them.
#
# The main window "Qt crash test" (400 wide at +0+0): a menu bar with File
# (About..., Settings...), under it an area where an entry sits at 20,100
# (360x40) and a button Hello at 20,200 (360x60) that counts its clicks.
# About... opens "About" (300x120 at +420+0) with one button OK over all
# of it, which closes it. Settings... opens "Settings" (300x120 at
# +420+0): Apply over its left half crashes the app, Close over its right
# half closes it.
import os
import signal
import sys

from PyQt5.QtWidgets import (QApplication, QHBoxLayout, QLineEdit, QMainWindow,
                             QPushButton, QWidget)


class Dialog(QWidget):
    def __init__(self, parent, title, buttons):
        super().__init__(parent, flags=__import__("PyQt5.QtCore").QtCore.Qt.Dialog)
        self.setWindowTitle(title)
        self.setFixedSize(300, 120)
        self.move(420, 0)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        for label, action in buttons:
            button = QPushButton(label, self)
            button.setFixedHeight(120)
            button.clicked.connect(action)
            layout.addWidget(button)
        self.show()


def crash():
    os.kill(os.getpid(), signal.SIGSEGV)


class Main(QMainWindow):
    def __init__(self):
        super().__init__()
        self.setWindowTitle("Qt crash test")
        self.dialogs = []
        menu = self.menuBar().addMenu("File")
        menu.addAction("About...", self.about)
        menu.addAction("Settings...", self.settings)
        area = QWidget(self)
        area.setFixedSize(400, 300)
        entry = QLineEdit(area)
        entry.setGeometry(20, 100, 360, 40)
        self.clicks = 0
        self.hello = QPushButton("Hello", area)
        self.hello.setGeometry(20, 200, 360, 60)
        self.hello.clicked.connect(self.count)
        self.setCentralWidget(area)
        self.move(0, 0)
        self.show()

    def count(self):
        self.clicks += 1
        self.hello.setText("Hello (%d)" % self.clicks)

    def about(self):
        dialog = Dialog(self, "About", [("OK", lambda: dialog.close())])

    def settings(self):
        dialog = Dialog(self, "Settings", [("Apply", crash), ("Close", lambda: dialog.close())])


def main():
    app = QApplication(sys.argv)
    window = Main()
    window.show()
    sys.exit(app.exec_())


if __name__ == "__main__":
    main()
